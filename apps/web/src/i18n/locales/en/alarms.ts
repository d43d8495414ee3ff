/** The lamp alarm page (/smartLamp/lampAlarm). Fault code labels are lighting:fault (spec section 3). */
export const alarms = {
  kind: {
    fault: 'Device fault',
    dayBurning: 'Lit in daylight',
    darkLamp: 'Dark when scheduled on',
  },
  state: {
    active: 'Active',
    acknowledged: 'Acknowledged',
    cleared: 'Cleared',
  },
  view: {
    label: 'Which alarms',
    open: 'Open alarms',
    history: 'History',
  },
  summary: {
    active: 'Active: {{count}}',
    acknowledged: 'Acknowledged: {{count}}',
  },
  fields: {
    raisedAt: 'Raised',
    device: 'Lamp',
    region: 'Region',
    alarm: 'Alarm',
    kind: 'Alarm type',
    code: 'Fault code',
    state: 'State',
    handled: 'Handled',
    from: 'Raised from',
    to: 'Raised until',
  },
  filters: {
    all: 'All',
    keywordPlaceholder: 'Lamp name or client ID',
  },
  actions: {
    acknowledge: 'Acknowledge',
    clear: 'Clear',
    acknowledgeSelected: 'Acknowledge selected ({{count}})',
    clearSelected: 'Clear selected ({{count}})',
    selectPage: 'Select the open alarms on this page',
    history: 'Alarm history of this lamp',
    showAll: 'Show every lamp',
  },
  confirm: {
    acknowledgeTitle: 'Acknowledge alarms',
    acknowledgeText_one: 'Acknowledge {{count}} alarm? It stays open until the device clears it or you clear it.',
    acknowledgeText_other: 'Acknowledge {{count}} alarms? They stay open until the device clears them or you clear them.',
    clearTitle: 'Clear alarms',
    clearText_one: 'Clear {{count}} alarm? If the device still reports the fault, it raises a new alarm the next time it reports it.',
    clearText_other: 'Clear {{count}} alarms? If the device still reports the fault, it raises a new alarm the next time it reports it.',
  },
  feedback: {
    acknowledged: 'Alarms acknowledged: {{count}}',
    cleared: 'Alarms cleared: {{count}}',
  },
  handled: {
    acknowledged: 'Acknowledged by {{who}} at {{time}}',
    clearedBy: 'Cleared by {{who}} at {{time}}',
    clearedByDevice: 'Cleared by the device at {{time}}',
  },
  deviceFilter: 'Alarm history of {{name}}',
};
