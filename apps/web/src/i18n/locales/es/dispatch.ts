/** Envíos a dispositivos de cualquier familia: el panel de progreso del registro de órdenes. */
export const dispatch = {
  title: 'Progreso del envío',
  empty: 'Envíe una orden para seguir aquí su progreso, dispositivo a dispositivo.',
  status: {
    toBeSent: 'Pendiente de envío',
    partiallySuccessful: 'Parcialmente correcto',
    allSuccessful: 'Todo correcto',
    allFailures: 'Todo fallido',
    sentSuccess: 'Enviado correctamente',
    sentFailed: 'Error de envío',
  },
  state: { queued: 'En cola', sent: 'Enviada', delivered: 'Entregada', failed: 'Fallida', expired: 'Caducada' },
  progress: '{{done}} de {{total}} respondidas',
  retryFailed: 'Reintentar solo las fallidas',
  retried: 'Se ha vuelto a enviar la orden a los dispositivos fallidos',
  stateColumn: 'Estado',
  attempts: 'Intentos',
  lastError: 'Último error',
  device: 'Dispositivo',
  createdBy: 'Enviada por {{name}}',
  expiresAt: 'Caduca {{time}}',
};
