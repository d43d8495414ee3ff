import { Inject } from '@nestjs/common';

/**
 * The application's data source. Each HTTP application of the process (console port, upload port) registers its own,
 * under its own name; services ask for this token and get the one of the application they belong to.
 */
export const DB = Symbol('DB');
export const InjectDb = (): ParameterDecorator => Inject(DB);
