/** Floor-screen proof of play (/floor-screen/plays). English, the reference the other languages must match. */
export const signagePlays = {
  startDate: 'Start date',
  endDate: 'End date',
  region: 'Region',
  group: 'Group',
  device: 'Device',
  ad: 'Ad',
  day: 'Day',
  all: 'All',
  plays: 'Plays',
  seconds: 'Played seconds',
  by: { ad: 'Per ad', device: 'Per device', day: 'Per day', detail: 'Per ad, device and day' },
  totals: '{{plays}} plays, {{seconds}} seconds played',
  deletedAd: 'Deleted ad #{{id}}',
};
