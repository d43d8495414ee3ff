import type { Icon } from '@tabler/icons-react';
import {
  IconBulb,
  IconDeviceTv,
  IconLamp2,
  IconLayoutBoard,
  IconMap2,
  IconRadar2,
  IconSettings,
  IconSpeakerphone,
  IconUrgent,
  IconUserCircle,
  IconVideo,
  IconWifi,
} from '@tabler/icons-react';
import { ALL_BUTTONS, Button, Role } from '@sc/contracts';
import type { FeatureNamespace } from '@/i18n';

/**
 * The console's routes as data (spec section 2), with the role gating of spec section 6. The sidebar, the
 * breadcrumb, the page title, the header search, the landing tiles and the router's permission check all read
 * this one table. A module joins the table when its pages are built: nothing here leads to an empty page.
 */
export interface RouteEntry {
  /** Absolute path. */
  path: string;
  /** Key under `common:route`. */
  title: string;
  icon?: Icon;
  /** Roles that may open it; absent means every signed-in user. Administrators open everything. */
  roles?: readonly string[];
  /** Reachable, but not listed in the menu. */
  hidden?: boolean;
  /** The page is rebuilt on every visit instead of kept in the visited tabs' cache. */
  noCache?: boolean;
  /** Where the parent path itself leads; the first permitted child otherwise. */
  redirect?: string;
  /** Keep the parent as a group even with a single visible child. */
  alwaysShow?: boolean;
  /** Translation namespaces the page uses beyond the core ones (messages, fields, common); loaded before it shows. */
  namespaces?: readonly FeatureNamespace[];
  /** The operations (spec section 6 buttons) the page offers to those granted them; the profile lists only these. */
  buttons?: readonly Button[];
  children?: readonly RouteEntry[];
}

/** Add, edit and delete: the operations of a page of records. */
const RECORDS = [Button.Add, Button.Edit, Button.Delete];
/** Open, close and dim. */
const LAMP_COMMANDS = [Button.OpenLamp, Button.CloseLamp, Button.OpenAndClose];

export const ROUTE_TABLE: readonly RouteEntry[] = [
  {
    // Spec section 6: the section admits admin, editor and visit; pole manage admits admin and visit.
    path: '/lampPole',
    title: 'lampPole',
    icon: IconLamp2,
    roles: [Role.Admin, Role.Editor, Role.Visit],
    children: [
      {
        path: '/lampPole/poleManage',
        title: 'poleManage',
        roles: [Role.Admin, Role.Visit],
        namespaces: ['imports', 'poles', 'region', 'video'],
        buttons: [Button.Add, Button.Edit, Button.Delete, Button.ImportData, Button.EditMqtt],
      },
    ],
  },
  {
    // Spec section 6: the section admits admin and visit; every page in it is admin only.
    path: '/smartLamp',
    title: 'smartLamp',
    icon: IconBulb,
    roles: [Role.Admin, Role.Visit],
    children: [
      {
        path: '/smartLamp/equipmentManage',
        title: 'equipmentManage',
        roles: [Role.Admin],
        // Imports and dispatch load with the import button and the dispatch drawer.
        namespaces: ['lighting', 'region'],
        buttons: ALL_BUTTONS,
      },
      {
        path: '/smartLamp/lampControl',
        title: 'lampControl',
        roles: [Role.Admin],
        namespaces: ['dispatch', 'lighting', 'region'],
        buttons: LAMP_COMMANDS,
      },
      {
        path: '/smartLamp/lampStrategy',
        title: 'lampStrategy',
        roles: [Role.Admin],
        namespaces: ['dispatch', 'lighting', 'region', 'schedule', 'strategy'],
        buttons: [...RECORDS, Button.OpenAndClose],
      },
      {
        path: '/smartLamp/lightManage',
        title: 'lightManage',
        roles: [Role.Admin],
        namespaces: ['dispatch', 'lighting', 'region', 'strip'],
        buttons: [...RECORDS, ...LAMP_COMMANDS, Button.EditMqtt],
      },
      {
        path: '/smartLamp/lightStrategy',
        title: 'lightStrategy',
        roles: [Role.Admin],
        namespaces: ['dispatch', 'region', 'schedule', 'strategy', 'strip'],
        buttons: [...RECORDS, Button.OpenAndClose],
      },
      // Not in the spec's route table ("further route groups are not shown"): alarms and energy of issue 5.
      {
        path: '/smartLamp/lampAlarm',
        title: 'lampAlarm',
        roles: [Role.Admin],
        namespaces: ['alarms', 'lighting', 'region', 'system'],
        buttons: [Button.Edit],
      },
      { path: '/smartLamp/energy', title: 'energy', roles: [Role.Admin], namespaces: ['energy', 'system'], buttons: [Button.Edit] },
    ],
  },
  {
    // Spec section 2: /realVideo with equipment and video. Spec section 6: Real video admin, editor; its children admin
    // only (an editor's menu shows none of it: a section without a page it may open is left out).
    path: '/realVideo',
    title: 'realVideo',
    icon: IconVideo,
    roles: [Role.Admin, Role.Editor],
    children: [
      {
        // The video equipment: records, the category tree, export and each one's live view.
        path: '/realVideo/equipment',
        title: 'equipment',
        roles: [Role.Admin],
        namespaces: ['video', 'region'],
        buttons: RECORDS,
      },
      {
        // The live wall: 1, 4, 9 or 16 cameras at once.
        path: '/realVideo/video',
        title: 'video',
        roles: [Role.Admin],
        namespaces: ['video'],
      },
    ],
  },
  {
    // Spec section 2: no redirect of its own. The spec gates no broadcast route: the roles of the family's live events.
    // Only its built pages are listed.
    path: '/broadcastManage',
    title: 'broadcastManage',
    icon: IconSpeakerphone,
    roles: [Role.Admin, Role.Editor, Role.Visit],
    children: [
      {
        path: '/broadcastManage/terminalManagement',
        title: 'terminalManagement',
        roles: [Role.Admin, Role.Editor, Role.Visit],
        namespaces: ['broadcast', 'dispatch', 'lighting', 'region'],
        buttons: [...RECORDS, Button.OpenAndClose, Button.EditMqtt],
      },
      {
        path: '/broadcastManage/terminalDetail',
        title: 'terminalDetail',
        roles: [Role.Admin, Role.Editor, Role.Visit],
        hidden: true,
        namespaces: ['broadcast', 'lighting'],
      },
      {
        path: '/broadcastManage/groupManagement',
        title: 'groupManagement',
        roles: [Role.Admin, Role.Editor, Role.Visit],
        namespaces: ['broadcastGroups', 'region'],
        buttons: RECORDS,
      },
      // Adding and editing a group are an editor's (visitors have neither button).
      {
        path: '/broadcastManage/groupManagementCreate',
        title: 'groupManagementCreate',
        roles: [Role.Admin, Role.Editor],
        hidden: true,
        namespaces: ['broadcast', 'broadcastGroups', 'region'],
      },
      {
        path: '/broadcastManage/groupManagementEdit',
        title: 'groupManagementEdit',
        roles: [Role.Admin, Role.Editor],
        hidden: true,
        namespaces: ['broadcast', 'broadcastGroups', 'region'],
      },
      {
        // Auditing is an administrator's: it needs no button of its own.
        path: '/broadcastManage/mediaLibrary',
        title: 'mediaLibrary',
        roles: [Role.Admin, Role.Editor, Role.Visit],
        namespaces: ['broadcastMedia'],
        buttons: RECORDS,
      },
      {
        path: '/broadcastManage/playList',
        title: 'playList',
        roles: [Role.Admin, Role.Editor, Role.Visit],
        namespaces: ['broadcastPlaylists'],
        buttons: RECORDS,
      },
      {
        // Sending, changing, deleting and playing a task reach terminals: each also needs Open and close. The form and the
        // detail load the terminal texts (broadcast, region) and the playback modes when they open.
        path: '/broadcastManage/broadcastTask',
        title: 'broadcastTask',
        roles: [Role.Admin, Role.Editor, Role.Visit],
        namespaces: ['broadcastTasks', 'dispatch', 'schedule'],
        buttons: [...RECORDS, Button.OpenAndClose],
      },
      {
        // Sending and stopping are opening and closing the terminals' output.
        path: '/broadcastManage/immediatelyBroadcastTask',
        title: 'immediatelyBroadcastTask',
        roles: [Role.Admin, Role.Editor, Role.Visit],
        namespaces: ['broadcast', 'broadcastGroups', 'broadcastPlaylists', 'broadcastTasks', 'dispatch', 'region'],
        buttons: [Button.OpenAndClose],
      },
    ],
  },
  {
    // Spec section 2: /ledManage redirects to ledEquipmentManage. The spec gates no LED route: the roles of the family's
    // live events (the gateway's).
    path: '/ledManage',
    title: 'ledManage',
    icon: IconLayoutBoard,
    roles: [Role.Admin, Role.Editor],
    redirect: '/ledManage/ledEquipmentManage',
    children: [
      {
        // Brightness, volume, time sync and the daylight rule are Edit; bright or black and reboot Open and close.
        path: '/ledManage/ledEquipmentManage',
        title: 'ledEquipmentManage',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['dispatch', 'led', 'region'],
        buttons: [...RECORDS, Button.OpenAndClose, Button.EditMqtt],
      },
      {
        // Uploading is Add, deleting Delete.
        path: '/ledManage/ledMediaLib',
        title: 'ledMediaLib',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['led'],
        buttons: [Button.Add, Button.Delete],
      },
      {
        // Playing now and stopping switch what a screen shows: Open and close.
        path: '/ledManage/ledRealTimePlay',
        title: 'ledRealTimePlay',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['dispatch', 'led', 'region'],
        buttons: [Button.OpenAndClose],
      },
      {
        // Saving is Add or Edit, publishing and retrying Add, deleting Delete.
        path: '/ledManage/ledTaskManage',
        title: 'ledTaskManage',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['led', 'schedule'],
        buttons: [...RECORDS],
      },
    ],
  },
  {
    // Spec section 2: /radarManage with radarTerminalManagement, radarGroupManagement, radarStrategyManagement and the
    // hidden radarCreateGroup and radarEditGroup. The spec gates no radar route: the roles of the family's live events.
    path: '/radarManage',
    title: 'radarManage',
    icon: IconRadar2,
    roles: [Role.Admin, Role.Editor],
    redirect: '/radarManage/radarTerminalManagement',
    children: [
      {
        // Records are Add, Edit and Delete; a new code Edit MQTT; imports Import data.
        path: '/radarManage/radarTerminalManagement',
        title: 'radarTerminalManagement',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['radar', 'region'],
        buttons: [...RECORDS, Button.EditMqtt, Button.ImportData],
      },
      {
        path: '/radarManage/radarGroupManagement',
        title: 'radarGroupManagement',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['radar', 'region'],
        buttons: RECORDS,
      },
      {
        path: '/radarManage/radarStrategyManagement',
        title: 'radarStrategyManagement',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['radar', 'region'],
        buttons: RECORDS,
      },
      {
        path: '/radarManage/radarCreateGroup',
        title: 'radarCreateGroup',
        roles: [Role.Admin, Role.Editor],
        hidden: true,
        namespaces: ['radar'],
      },
      {
        path: '/radarManage/radarEditGroup',
        title: 'radarEditGroup',
        roles: [Role.Admin, Role.Editor],
        hidden: true,
        namespaces: ['radar'],
      },
    ],
  },
  {
    // Spec section 2: /wifiManage redirects to acManage. The spec gates no Wi-Fi route: the roles of the families' live
    // events (the gateway's).
    path: '/wifiManage',
    title: 'wifiManage',
    icon: IconWifi,
    roles: [Role.Admin, Role.Editor],
    redirect: '/wifiManage/acManage',
    children: [
      {
        // Rebooting is Open and close (as for the screens).
        path: '/wifiManage/acManage',
        title: 'acManage',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['dispatch', 'wifi', 'region'],
        buttons: [...RECORDS, Button.OpenAndClose, Button.EditMqtt],
      },
      {
        path: '/wifiManage/apManage',
        title: 'apManage',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['dispatch', 'wifi', 'region'],
        buttons: [...RECORDS, Button.OpenAndClose, Button.EditMqtt],
      },
      {
        // Who is online now, and the session history.
        path: '/wifiManage/terminalManage',
        title: 'terminalManage',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['wifi', 'region'],
      },
    ],
  },
  {
    // Spec section 2: /alarmManage, always shown, with alarmManage, userGroupManagement, callLogQuery, equipmentInquiry
    // and audioInquiry. The spec gates no alarm route: the roles of the family's live events (the gateway's).
    path: '/alarmManage',
    title: 'alarmManage',
    icon: IconUrgent,
    roles: [Role.Admin, Role.Editor],
    alwaysShow: true,
    children: [
      {
        // Rebooting is Open and close, the volume a setting (Edit), as for the screens.
        path: '/alarmManage/alarmManage',
        title: 'alarmColumnManage',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['dispatch', 'alarmColumns', 'alarmIntercom', 'region', 'system', 'lighting', 'led', 'broadcastTasks', 'schedule', 'video'],
        buttons: [...RECORDS, Button.ImportData, Button.OpenAndClose, Button.EditMqtt],
      },
      {
        // The operators who take the columns' calls, their modes live.
        path: '/alarmManage/userGroupManagement',
        title: 'userGroupManagement',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['alarmIntercom', 'region', 'system'],
        buttons: RECORDS,
      },
      {
        path: '/alarmManage/callLogQuery',
        title: 'callLogQuery',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['alarmIntercom', 'system'],
      },
      {
        // The intercom's endpoints: the columns and the agents' consoles, with their accounts, state and calls.
        path: '/alarmManage/equipmentInquiry',
        title: 'equipmentInquiry',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['alarmIntercom', 'system'],
      },
      {
        // The calls' recordings, searched and played; announcements on the columns' speakers (Edit), followed live, with
        // an MP3 upload into the broadcast media library (Add).
        path: '/alarmManage/audioInquiry',
        title: 'audioInquiry',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['dispatch', 'alarmColumns', 'alarmIntercom', 'broadcastMedia', 'broadcastPlaylists', 'region', 'system'],
        buttons: [Button.Edit, Button.Add],
      },
      {
        // Not in the spec's route table: every device family's alarms (offline, overload, the lamps' faults), by the
        // roles that see each family.
        path: '/alarmManage/deviceAlarms',
        title: 'deviceAlarms',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['alarms', 'lighting', 'region', 'system'],
        buttons: [Button.Edit],
      },
    ],
  },
  {
    // Spec section 2: /floor-screen redirects to /floor-screen/ad-plan. The spec gates no floor-screen route:
    // administrators and editors.
    path: '/floor-screen',
    title: 'floorScreen',
    icon: IconDeviceTv,
    roles: [Role.Admin, Role.Editor],
    redirect: '/floor-screen/ad-plan',
    children: [
      {
        // Publishing and retrying are the `publish` action's button (Add).
        path: '/floor-screen/ad-plan',
        title: 'adPlan',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['signagePlans', 'schedule'],
        buttons: RECORDS,
      },
      {
        path: '/floor-screen/device',
        title: 'floorScreenDevice',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['signage', 'dispatch', 'lighting', 'region'],
        buttons: [...RECORDS, Button.OpenAndClose, Button.EditMqtt, Button.Refresh],
      },
      {
        path: '/floor-screen/advert',
        title: 'advert',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['signageAds', 'signageMaterials'],
        buttons: RECORDS,
      },
      {
        // Proof of play: reads only (its export included), for the module's roles.
        path: '/floor-screen/plays',
        title: 'floorScreenPlays',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['signagePlays', 'region', 'system'],
      },
      {
        // The module's operation log: the one log (/systemSetting/log) filtered to the floor screens, for the module's roles.
        path: '/floor-screen/log',
        title: 'floorScreenLog',
        roles: [Role.Admin, Role.Editor],
        namespaces: ['system'],
      },
    ],
  },
  {
    path: '/regionManage',
    title: 'regionManage',
    icon: IconMap2,
    children: [{ path: '/regionManage/regionManage', title: 'regionManage', namespaces: ['region'], buttons: RECORDS }],
  },
  {
    path: '/systemSetting',
    title: 'systemSetting',
    icon: IconSettings,
    roles: [Role.Admin],
    alwaysShow: true,
    redirect: '/systemSetting/userManage',
    children: [
      { path: '/systemSetting/userManage', title: 'userManage', roles: [Role.Admin], namespaces: ['system'] },
      { path: '/systemSetting/permission', title: 'permission', roles: [Role.Admin], namespaces: ['system'] },
      { path: '/systemSetting/log', title: 'log', roles: [Role.Admin], namespaces: ['system'] },
    ],
  },
  {
    path: '/profile',
    title: 'profile',
    icon: IconUserCircle,
    redirect: '/profile/inforManage',
    children: [{ path: '/profile/inforManage', title: 'inforManage', noCache: true, namespaces: ['profile'] }],
  },
];

/** Pages outside the sidebar that still have a title (public routes of spec section 2). */
export const PAGE_TITLES: Readonly<Record<string, string>> = {
  '/login': 'login',
  '/entry': 'entry',
  '/404': 'notFound',
  '/401': 'unauthorized',
};

/** Top navigation (spec section 2); a link shows only once the router has its page. */
export const CENTER_LINKS = [
  { path: '/monitoringCenter', title: 'monitoringCenter' },
  { path: '/board', title: 'commandCenter' },
  { path: '/dashboard', title: 'operationCenter' },
] as const;
