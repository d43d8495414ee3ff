import { controlButton, familyEventRoles } from '@sc/contracts';
import { useSession } from './session-store';

/**
 * Whether the signed-in user may send a family's control action: its button, and a role that opens the family's pages,
 * as the server checks when it writes the dispatch (it refuses the rest anyway). Apart from the session store, so the
 * family declarations load only with the pages that send commands.
 */
export function useMayControl(family: string, action: string): boolean {
  return useSession((s) => {
    const button = controlButton(family, action);
    return button !== undefined && s.buttons.includes(button) && familyEventRoles(family).some((role) => s.roles.includes(role));
  });
}
