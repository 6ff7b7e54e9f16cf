// Floor for figure 1: the least a commander program does for --version.
import { Command } from 'commander';

new Command('plants').version('0.1.0', '-V, --version').parse();
