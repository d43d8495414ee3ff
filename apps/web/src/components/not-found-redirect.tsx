import { Navigate } from '@tanstack/react-router';

/** Spec section 2: unknown paths go to /404. */
export function NotFoundRedirect() {
  return <Navigate to="/404" replace />;
}
