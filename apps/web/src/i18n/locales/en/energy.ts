/** The lamp energy page (/smartLamp/energy). */
export const energy = {
  period: {
    label: 'Period',
    day: 'Day',
    month: 'Month',
  },
  fields: {
    day: 'Day',
    month: 'Month',
    energy: 'Energy used',
    full: 'At full power',
    saving: 'Saved',
    litHours: 'Lamp hours lit',
    lamps: 'Lamps',
    lamp: 'Lamp',
    region: 'Region',
    ratedPower: 'Rated power',
    savingShare: 'Saving',
  },
  charts: {
    byHour: 'Energy by hour',
    byDay: 'Energy by day',
    byRegion: 'Energy and saving by region',
    timeZone: 'Time zone: {{zone}}',
  },
  lamps: {
    title: 'Lamps, largest users first',
  },
  selectedRegion: 'Showing {{region}} and the regions below it.',
  allRegions: 'Show all regions',
  toggleRegion: 'Show or hide the regions below',
  unassigned: 'Lamps without a region',
  ratedPower: {
    edit: 'Edit the rated power',
    title: 'Rated power of {{name}}',
    hint: 'Watts at full brightness: full-power energy and the saving are measured against it, for past days too.',
  },
};
