// werift publishes its recorder under the `werift/nonstandard` export, whose types sit at this path inside the package
// (the project resolves modules the Node 10 way, which does not read package exports).
declare module 'werift/nonstandard' {
  export * from 'werift/lib/webrtc/src/nonstandard';
}
