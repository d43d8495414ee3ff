import { es as server } from '@sc/i18n/locales/es';
import { common } from './common';

/** What every page needs before it renders: the server's catalogue and the console frame. Feature namespaces load with their pages. */
const core = { messages: server.messages, fields: server.fields, common };
export default core;
