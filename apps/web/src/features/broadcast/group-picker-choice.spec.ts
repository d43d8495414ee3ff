import type { BroadcastGroupOption } from '@sc/contracts';
import { emptyChosenGroup, groupPickerData } from './group-picker-choice';

const OPTIONS: BroadcastGroupOption[] = [
  { id: 1, groupName: 'Empty corner', memberCount: 0, empty: true },
  { id: 2, groupName: 'Lianhua squares', memberCount: 3, empty: false },
];

describe('group picker', () => {
  it('offers every group by name, an empty one disabled', () => {
    expect(groupPickerData(OPTIONS)).toEqual([
      { value: '1', label: 'Empty corner', disabled: true },
      { value: '2', label: 'Lianhua squares', disabled: false },
    ]);
  });

  it('finds an empty group among those chosen (one emptied since it was chosen), and none otherwise', () => {
    expect(emptyChosenGroup(OPTIONS, [2, 1])).toMatchObject({ id: 1 });
    expect(emptyChosenGroup(OPTIONS, [2])).toBeNull();
    expect(emptyChosenGroup(OPTIONS, [])).toBeNull();
  });
});
