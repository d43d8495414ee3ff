/** Schedules of lamp strategies and broadcast tasks: weekdays and periods of a day (components/schedule-fields). English, the reference. */
export const schedule = {
  weekday: { 1: 'Mon', 2: 'Tue', 3: 'Wed', 4: 'Thu', 5: 'Fri', 6: 'Sat', 7: 'Sun' },
  everyDay: 'Every day',
  weekdaysHint: 'None selected means all seven days',
  start: 'Start',
  end: 'End',
  addPeriod: 'Add period',
  removePeriod: 'Remove period',
};
