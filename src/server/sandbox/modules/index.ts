/**
 * The sandbox's modules, in seed order. Each area of the API is one module: its migrations, seed, handlers
 * and background simulation.
 */
import type { SandboxModule } from '../context';
import { coreModule } from './core';
import { organizationsModule } from './organizations';

export const sandboxModules: readonly SandboxModule[] = [coreModule, organizationsModule];
