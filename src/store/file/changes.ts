import {
  decideAdds,
  decideDeletes,
  decidePatches,
  decidePuts,
  etagOfFor,
  targetId,
  type EtagOf,
} from '../../core/decide.js';
import { encodePlant } from '../../core/plant-json.js';
import type { NewPlant } from '../../core/schemas.js';
import type {
  AddOutcome,
  DeleteOutcome,
  Patch,
  PatchOutcome,
  PlantWriter,
  Put,
  PutOutcome,
  Removal,
} from '../../core/store.js';
import { DELETED, deleteLine } from './wal.js';
import type { Snapshot } from './snapshot.js';

/** What a write appends to the WAL: a line for each of the ids it changes, deleting them or not. */
export interface Changes {
  ids: bigint[];
  lines: string[];
  deleted: boolean;
}

/**
 * What each line of `changes`, appended from byte `start` of the WAL, says of its id (wal.ts):
 * where it starts, or DELETED.
 */
export function walValues({ lines, deleted }: Changes, start: number): number[] {
  const values: number[] = [];
  for (const line of lines) {
    values.push(deleted ? DELETED : start);
    start += Buffer.byteLength(line) + 1;
  }
  return values;
}

/** A write, decided on the store as a snapshot holds it (core/decide.ts): its outcomes, and what it appends. */
export type Decision<O> = (snapshot: Snapshot) => { outcomes: O[]; changes: Changes };

/** The lines of plants a write leaves: each plant's whole state, the last line of an id winning. */
function plantLines(plants: readonly NewPlant[]): Changes {
  return { ids: plants.map((plant) => plant.id), lines: plants.map(encodePlant), deleted: false };
}

export function adding(plants: readonly NewPlant[]): Decision<AddOutcome> {
  return (snapshot) => {
    const outcomes = decideAdds(plants, (id) => snapshot.has(id));
    return { outcomes, changes: plantLines(plants.filter((_, i) => outcomes[i] === 'added')) };
  };
}

/**
 * Puts, each compared with the plant stored as canonical lines (snapshot.holds): the new plant's
 * line is the one it appends, so no stored plant is read to tell `updated` from `unchanged`.
 */
export function putting(puts: readonly Put[], etagOf: EtagOf | undefined): Decision<PutOutcome> {
  return (snapshot) => {
    const lines = puts.map(({ plant }) => encodePlant(plant));
    const held = (i: number) => snapshot.holds((puts[i] as Put).plant.id, lines[i] as string);
    const { outcomes, writes } = decidePuts(puts, (id) => snapshot.get(id), etagOf, held);
    // A put is written where it created or updated, once, in order (decidePuts).
    const written = lines.filter((_, i) => outcomes[i] === 'created' || outcomes[i] === 'updated');
    return { outcomes, changes: { ids: writes.map((plant) => plant.id), lines: written, deleted: false } };
  };
}

export function patching(patches: readonly Patch[], etagOf: EtagOf | undefined): Decision<PatchOutcome> {
  return (snapshot) => {
    const { outcomes, writes } = decidePatches(patches, (id) => snapshot.get(id), etagOf);
    return { outcomes, changes: plantLines(writes) };
  };
}

export function deleting(targets: readonly (bigint | Removal)[], etagOf: EtagOf | undefined): Decision<DeleteOutcome> {
  return (snapshot) => {
    const outcomes = decideDeletes(
      targets,
      (id) => snapshot.has(id),
      (id) => snapshot.get(id),
      etagOf,
    );
    const deleted = targets.filter((_, i) => outcomes[i] === 'deleted').map(targetId);
    return { outcomes, changes: { ids: deleted, lines: deleted.map(deleteLine), deleted: true } };
  };
}

/** The writer whose writes `write` makes one after another, each decided on the store as the one before left it. */
export function writerOf(write: <O>(decide: Decision<O>) => Promise<O[]>): PlantWriter {
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <O>(decide: Decision<O>) => {
    const run = turn.then(() => write(decide));
    turn = run.catch(() => undefined);
    return run;
  };
  return {
    addAll: (plants) => inTurn(adding(plants)),
    putAll: async (puts) => inTurn(putting(puts, await etagOfFor(puts))),
    patchAll: async (patches) => inTurn(patching(patches, await etagOfFor(patches))),
    deleteAll: async (targets) => inTurn(deleting(targets, await etagOfFor(targets))),
  };
}
