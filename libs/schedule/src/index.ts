// The astronomical clock and lighting strategy evaluation shared by the gateway, the lighting worker and the simulator.
export {};
