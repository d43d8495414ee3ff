import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';

/** Spec section 8: error messages stay for 5 s. */
export const ERROR_TOAST_MS = 5_000;

export function notifyError(message: string): void {
  notifications.show({ color: 'red', message, autoClose: ERROR_TOAST_MS, icon: <IconAlertCircle size={18} />, withBorder: true });
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', message, autoClose: 3_000, icon: <IconCheck size={18} />, withBorder: true });
}
