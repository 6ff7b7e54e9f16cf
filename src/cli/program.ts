import type { CommandGroup, CommandSpec } from './command-spec.js';
import { command as auth } from './commands/auth/command.js';
import { completionCommand } from './commands/completion/command.js';
import { command as config } from './commands/config/command.js';
import { command as create } from './commands/create/command.js';
import { command as deletePlants } from './commands/delete/command.js';
import { command as get } from './commands/get/command.js';
import { command as importPlants } from './commands/import/command.js';
import { command as list } from './commands/list/command.js';
import { command as login } from './commands/login/command.js';
import { command as logout } from './commands/logout/command.js';
import { command as serve } from './commands/serve/command.js';
import { command as update } from './commands/update/command.js';
import type { CommandSection } from './help.js';

/**
 * The commands of plants, under what they are for, in the order `plants --help` lists them. A new
 * command is a folder of commands/ and a line here.
 */
export const COMMAND_SECTIONS: readonly CommandSection[] = [
  { title: 'PLANT COMMANDS', entries: [create, get, list, update, deletePlants, importPlants] },
  { title: 'SERVICE COMMANDS', entries: [serve] },
  { title: 'ACCOUNT COMMANDS', entries: [login, logout, auth, config] },
  { title: 'ADDITIONAL COMMANDS', entries: [completionCommand(() => COMMANDS)] },
];

export const COMMANDS: readonly (CommandSpec | CommandGroup)[] = COMMAND_SECTIONS.flatMap((section) => section.entries);
