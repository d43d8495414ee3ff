// Browser tests wait on a real browser, the built services and the broker, two test files at a time on two cores:
// a step that takes a few seconds alone may take several times that while the other file loads the machine.
jest.setTimeout(60_000);
