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

/** The commands of plants, in the order `plants --help` lists them. A new command is a folder of commands/ and a line here. */
export const COMMANDS: readonly (CommandSpec | CommandGroup)[] = [create, get, list, deletePlants, importPlants, serve, login, logout, auth, config, completionCommand(() => COMMANDS)];
