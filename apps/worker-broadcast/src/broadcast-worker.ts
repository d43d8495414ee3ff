import type { AnyFamilyHandler, ChangeObserver } from '@sc/device-runtime';
import { terminalHandler } from './families/terminal.handler';
import { PlayHistoryRecorder } from './history/play-history';

/** The families the broadcast worker serves: its terminals. */
export const BROADCAST_FAMILIES: readonly AnyFamilyHandler[] = [terminalHandler];

/** What the broadcast worker writes beside the terminals' rows: what each played, and when. */
export const BROADCAST_OBSERVERS = (): ChangeObserver[] => [new PlayHistoryRecorder()];
