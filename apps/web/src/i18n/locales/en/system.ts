export const system = {};
