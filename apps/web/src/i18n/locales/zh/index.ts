import { zhCN as server } from '@sc/i18n/locales/zh-CN';
import { common } from './common';
import { system } from './system';
import { region } from './region';
import { profile } from './profile';
import { lighting } from './lighting';

/** The server's catalogue (spec messages and field labels) plus the console's own namespaces. */
const catalogue = { messages: server.messages, fields: server.fields, common, system, region, profile, lighting };
export default catalogue;
