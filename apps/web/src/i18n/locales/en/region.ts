export const region = {};
