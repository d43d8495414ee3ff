/** Broadcast terminal groups (/broadcastManage/groupManagement and its create and edit pages) and the group picker of the task forms. English, the reference the other languages must match. */
export const broadcastGroups = {
  add: 'Add group',
  create: 'Create group',
  edit: 'Edit group',
  back: 'Back to the groups',
  notFound: 'This group does not exist',
  empty: 'No groups',
  deleteDetail: 'Delete the group "{{name}}"? Its terminals are kept.',
  fields: {
    groupName: 'Group name',
    region: 'Region',
    remark: 'Remark',
    memberCount: 'Terminals',
    updatedAt: 'Updated',
  },
  terminals: {
    title: 'Terminals of the group',
    choose: 'Choose terminals',
    chosen: 'In the group ({{count}})',
    none: 'No terminals in this group yet: tick them in the list',
    remove: 'Take out of the group',
    removeAll: 'Take all out',
  },
  picker: {
    label: 'Groups',
    placeholder: 'Choose groups',
    members_one: '{{count}} terminal',
    members_other: '{{count}} terminals',
    nothing: 'No groups',
  },
};
