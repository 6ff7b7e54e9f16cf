import {
  accessSync,
  chmodSync,
  close,
  constants,
  closeSync,
  fchmodSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  open,
  openSync,
  read,
  readFileSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  write,
  writeSync,
} from 'node:fs';
import type * as nodeFs from 'node:fs';

/**
 * Every file operation of plants goes through one of these: node:fs in a real run, or in tests one
 * that fails as a full disk does, or lets another "process" act at a chosen moment. The store, the
 * config and token files, serve's records and bulk work's inputs and outputs all take it (a
 * store's options, the command context), so that a test can fail any read or write of theirs. No
 * file of src/ but this folder imports node:fs (eslint.config.js).
 */
export type FileSystem = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'accessSync'
  | 'readSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'fdatasyncSync'
  | 'fstatSync'
  | 'fchmodSync'
  | 'ftruncateSync'
  | 'closeSync'
  | 'renameSync'
  | 'linkSync'
  | 'unlinkSync'
  | 'statSync'
  | 'lstatSync'
  | 'readlinkSync'
  | 'realpathSync'
  | 'readdirSync'
  | 'readFileSync'
  | 'chmodSync'
  | 'mkdirSync'
  | 'rmdirSync'
  | 'utimesSync'
  // The calls of streams (bulk inputs and outputs), and of appends that must not block a server.
  | 'open'
  | 'read'
  | 'write'
  | 'close'
  | 'fdatasync'
>;

/** node:fs's own functions, taken one by one: a plain object, not a namespace of getters over all of node:fs. */
export const NODE_FS: FileSystem = {
  openSync,
  accessSync,
  readSync,
  writeSync,
  fsyncSync,
  fdatasyncSync,
  fstatSync,
  fchmodSync,
  ftruncateSync,
  closeSync,
  renameSync,
  linkSync,
  unlinkSync,
  statSync,
  lstatSync,
  readlinkSync,
  realpathSync,
  readdirSync,
  readFileSync,
  chmodSync,
  mkdirSync,
  rmdirSync,
  utimesSync,
  open,
  read,
  write,
  close,
  fdatasync,
};

/** What a stat answers, for the rest of src/, which does not import node:fs. */
export type { BigIntStats, Stats } from 'node:fs';

/** accessSync's question: may this process write the file? */
export const W_OK = constants.W_OK;
