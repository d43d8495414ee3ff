export * from './kit';
export * from './families/lamp.sim';
export * from './families/strip.sim';
