import type { AnyFamilyHandler } from '@sc/device-runtime';
import { terminalHandler } from './families/terminal.handler';

/** The families the broadcast worker serves: its terminals (groups, playlists and tasks join them here). */
export const BROADCAST_FAMILIES: readonly AnyFamilyHandler[] = [terminalHandler];
