// Quiet logs in tests unless asked for; every test file picks its own database and Redis prefix.
process.env.LOG_LEVEL ??= 'silent';
process.env.LOG_FORMAT ??= 'json';
