import type { broadcastGroups as en } from '../en/broadcastGroups';

/** Grupos de terminales (/broadcastManage/groupManagement y sus páginas de alta y edición) y el selector de grupos de los formularios de tareas. */
export const broadcastGroups: typeof en = {
  add: 'Añadir grupo',
  create: 'Crear grupo',
  edit: 'Editar grupo',
  back: 'Volver a los grupos',
  notFound: 'Este grupo no existe',
  empty: 'No hay grupos',
  deleteDetail: '¿Eliminar el grupo "{{name}}"? Sus terminales se conservan.',
  fields: {
    groupName: 'Nombre del grupo',
    region: 'Región',
    remark: 'Observación',
    memberCount: 'Terminales',
    updatedAt: 'Actualizado',
  },
  terminals: {
    title: 'Terminales del grupo',
    choose: 'Elegir terminales',
    chosen: 'En el grupo ({{count}})',
    none: 'Este grupo aún no tiene terminales: márquelos en la lista',
    remove: 'Sacar del grupo',
    removeAll: 'Sacar todos',
  },
  picker: {
    label: 'Grupos',
    placeholder: 'Elija grupos',
    members_one: '{{count}} terminal',
    members_other: '{{count}} terminales',
    nothing: 'No hay grupos',
  },
};
