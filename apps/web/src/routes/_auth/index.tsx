import { createFileRoute, redirect } from '@tanstack/react-router';
import { getMenuList } from '@/auth/token';

/** Spec section 2: `/` goes to /entry when the stored menu list contains Home or Admin, otherwise to /profile. */
export const Route = createFileRoute('/_auth/')({
  beforeLoad: () => {
    const menu = getMenuList();
    throw redirect({ to: menu.includes('Home') || menu.includes('Admin') ? '/entry' : '/profile/inforManage' });
  },
});
