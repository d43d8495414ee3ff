import { zhCN as server } from '@sc/i18n/locales/zh-CN';
import { common } from './common';
import { system } from './system';
import { region } from './region';
import { profile } from './profile';
import { lighting } from './lighting';
import { alarms } from './alarms';
import { energy } from './energy';
import { poles } from './poles';
import { imports } from './imports';
import { strategy } from './strategy';
import { strip } from './strip';
import { dispatch } from './dispatch';
import { broadcast } from './broadcast';
import { broadcastGroups } from './broadcastGroups';
import { broadcastMedia } from './broadcastMedia';
import { broadcastPlaylists } from './broadcastPlaylists';
import { broadcastTasks } from './broadcastTasks';
import { schedule } from './schedule';
import { signageMaterials } from './signageMaterials';
import { led } from './led';
import { radar } from './radar';
import { wifi } from './wifi';
import { alarmColumns } from './alarmColumns';
import { alarmIntercom } from './alarmIntercom';
import { signage } from './signage';
import { signageAds } from './signageAds';
import { signagePlans } from './signagePlans';
import { signagePlays } from './signagePlays';
import { video } from './video';

/** The server's catalogue (spec messages and field labels) plus the console's own namespaces. */
const catalogue = {
  messages: server.messages,
  fields: server.fields,
  common,
  system,
  region,
  profile,
  lighting,
  poles,
  imports,
  alarms,
  energy,
  strategy,
  strip,
  dispatch,
  broadcast,
  broadcastGroups,
  broadcastMedia,
  broadcastPlaylists,
  broadcastTasks,
  schedule,
  signageMaterials,
  led,
  radar,
  wifi,
  alarmColumns,
  alarmIntercom,
  signage,
  signageAds,
  signagePlans,
  signagePlays,
  video,
};
export default catalogue;
