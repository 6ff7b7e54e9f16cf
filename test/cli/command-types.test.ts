import { describe, expect, it } from 'vitest';
import type { CommandImplementation } from '../../src/cli/command-implementation.js';
import { declareCommand, JSON_FLAG } from '../../src/cli/command-spec.js';
import type { CreateOptions } from '../../src/cli/commands/create/run.js';
import type { GetResult } from '../../src/cli/commands/get/render.js';
import { implementation as get, type GetOptions } from '../../src/cli/commands/get/run.js';
import { renderJson as renderListJson } from '../../src/cli/commands/list/render.js';
import type { IOStreams } from '../../src/cli/context.js';
import type { LogoutOptions } from '../../src/cli/commands/logout/run.js';
import { TARGET_FLAGS, targetOptions } from '../../src/cli/target-flags.js';

// Each `@ts-expect-error` below is a program the type checker must refuse: `npm run typecheck`
// fails where one of them compiles. The declarations are made, never run: nothing is loaded.

const HELP = { summary: 'a command for the type checker', examples: [], exitCodes: { ok: 'done' } };
const ID = { kind: 'string', value: '<id>', description: 'the plant id', required: true } as const;

describe('a declaration and what it loads are checked against each other (by the type checker)', () => {
  it("refuses a run that takes other options than the declaration's", () => {
    const commands = [
      // get's declaration and get's run: the control, which compiles.
      declareCommand({
        ...HELP,
        name: 'get',
        flags: { id: ID, ...TARGET_FLAGS, json: JSON_FLAG },
        options: ({ flags }): GetOptions => ({ id: flags.id, target: targetOptions('get', flags), json: flags.json }),
        load: () => import('../../src/cli/commands/get/run.js'),
      }),
      declareCommand({
        ...HELP,
        name: 'get',
        flags: { id: ID, ...TARGET_FLAGS, json: JSON_FLAG },
        // @ts-expect-error create's run takes a plant, which get's options have not.
        options: ({ flags }): GetOptions => ({ id: flags.id, target: targetOptions('get', flags), json: flags.json }),
        load: () => import('../../src/cli/commands/create/run.js'),
      }),
      declareCommand({
        ...HELP,
        name: 'logout',
        flags: { json: JSON_FLAG },
        // @ts-expect-error get's run needs an id and a target, which logout's options have not.
        options: ({ flags }): LogoutOptions => ({ json: flags.json }),
        load: () => import('../../src/cli/commands/get/run.js'),
      }),
    ];
    expect(commands.map((command) => command.name)).toEqual(['get', 'get', 'logout']);
  });

  it('refuses options that the flags, as declared, may not make', () => {
    const command = declareCommand({
      ...HELP,
      name: 'create',
      // --name is not required: it may be missing, and a plant's name may not.
      flags: {
        id: ID,
        name: { kind: 'string', value: '<name>', description: 'the name' },
        ...TARGET_FLAGS,
        json: JSON_FLAG,
      },
      options: ({ flags }): CreateOptions => ({
        // @ts-expect-error name is string | undefined
        plant: { id: flags.id, name: flags.name },
        target: targetOptions('create', flags),
        json: flags.json,
      }),
      load: () => import('../../src/cli/commands/create/run.js'),
    });
    expect(command.name).toBe('create');
  });

  it('refuses an implementation whose renderers take another result than its run returns', () => {
    const needsMore = (result: GetResult & { changed: boolean }, io: IOStreams) => void [result, io];
    const mixed = [
      // @ts-expect-error list's renderJson takes a list of plants, not one plant.
      { ...get, renderJson: renderListJson } satisfies CommandImplementation<GetOptions, GetResult>,
      // @ts-expect-error the result has no `changed`. (Were renderHuman a method, this would pass.)
      { ...get, renderHuman: needsMore } satisfies CommandImplementation<GetOptions, GetResult>,
    ];
    for (const implementation of mixed)
      expect(Object.keys(implementation)).toEqual(['run', 'renderHuman', 'renderJson']);
  });
});
