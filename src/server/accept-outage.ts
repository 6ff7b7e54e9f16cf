import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { thousands } from '../core/printable.js';
import { ioReason, isOutOfDescriptors } from '../fs/io-reason.js';
import { Outage } from './outage.js';

/** The most connections a listener takes, and the limit of open files that set it, if one did. */
export interface ConnectionCap {
  connections: number;
  /** The process's limit of open files (ulimit -n), where it is what leaves no room for more. */
  openFiles?: number;
}

/**
 * What the log and /readyz say of a listener that refuses connections: node closes each one past
 * its cap as it comes ('drop'), where each connection is a descriptor and the cap is what the
 * limit of open files leaves room for (serve's open-files.ts sets it so); an accept that fails for
 * want of one is the same ('error', EMFILE, where libuv could not close it quietly). Said once as
 * it starts and once as it ends (Outage): not a line per connection.
 */
export class AcceptOutage {
  private readonly outage: Outage;
  /** The watched listener's, once it is watched. */
  private cap: ConnectionCap = { connections: 0 };

  constructor(say: (line: string) => void) {
    const connections = (count: number) => `${thousands(count)} ${count === 1 ? 'connection was' : 'connections were'}`;
    this.outage = new Outage(say, {
      started: (cause) =>
        `plants serve: refusing connections: ${cause}; the connections refused meanwhile are counted, not logged`,
      recovered: 'accepting connections again',
      ended: (why, refused) => `plants serve: ${why}; ${connections(refused)} refused meanwhile`,
    });
  }

  get isOut(): boolean {
    return this.outage.isOut;
  }

  /** Why /readyz answers 503 while it refuses connections. */
  get reason(): string {
    return this.cap.openFiles === undefined
      ? `refusing connections: at its limit of ${thousands(this.cap.connections)} connections`
      : 'refusing connections: at the limit of open files';
  }

  /**
   * Counts the refusals of `server`, which takes `cap` connections at most, and the connections it takes and lets go,
   * which end them.
   */
  watch(server: Server, cap: ConnectionCap): void {
    this.cap = cap;
    const full =
      cap.openFiles === undefined
        ? 'the most it takes'
        : `the most the limit of open files (ulimit -n ${cap.openFiles}) leaves room for`;
    server.on('drop', () => this.outage.refused(`${thousands(cap.connections)} open, ${full}`));
    server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.syscall === 'accept' && isOutOfDescriptors(error)) this.outage.refused(ioReason(error));
    });
    // A connection taken, or one gone that leaves room: the outage ends if none is refused for a while.
    server.on('connection', (socket: Socket) => {
      this.outage.worked();
      socket.once('close', () => this.outage.worked());
    });
  }

  /** The server stops: an outage still on is accounted for. */
  stopped(): void {
    this.outage.stopped();
  }
}
