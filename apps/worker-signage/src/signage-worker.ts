import type { AnyFamilyHandler, ChangeObserver } from '@sc/device-runtime';
import { signageHandler } from './families/signage.handler';
import { PlayRecorder } from './plays/play-recorder';

/** The families the floor-screen worker serves: its players. */
export const SIGNAGE_FAMILIES: readonly AnyFamilyHandler[] = [signageHandler];

/** What the floor-screen worker writes beside the players' rows: proof of play. */
export const SIGNAGE_OBSERVERS = (): ChangeObserver[] => [new PlayRecorder()];
