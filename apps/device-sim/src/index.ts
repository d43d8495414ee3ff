export * from './kit';
export * from './families/lamp.sim';
export * from './families/strip.sim';
export * from './families/broadcast.sim';
export * from './families/signage.sim';
export * from './families/led.sim';
