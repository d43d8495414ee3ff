import type { AnyFamilyHandler } from '@sc/device-runtime';
import { ledHandler } from './families/led.handler';

/** The families the LED worker serves: its screens. */
export const LED_FAMILIES: readonly AnyFamilyHandler[] = [ledHandler];
