// When 'Confirm logout' (spec section 8, code -1) asks, and when it does not ask again: calls that were already on
// their way when the user chose to stay do not reopen it; a call made afterwards does.
type ConfirmProps = { onClose: () => void; onConfirm: () => void };

const opened: ConfirmProps[] = [];
let token: string | undefined = 'token-a';

jest.mock('@mantine/modals', () => ({ modals: { openConfirmModal: (props: ConfirmProps) => opened.push(props) } }));
jest.mock('@mantine/core', () => ({ Text: () => null }));
jest.mock('@/i18n', () => ({ i18next: { t: (key: string) => key } }));
jest.mock('./token', () => ({ getToken: () => token }));
jest.mock('./session-store', () => ({ session: { markEnded: () => undefined, reset: () => undefined } }));

import { confirmLoggedOut } from './logged-out-dialog';

describe('confirmLoggedOut', () => {
  it('asks once however many calls fail together, not again for calls sent before Cancel, again for later calls', () => {
    const sentBefore = performance.now();
    confirmLoggedOut();
    confirmLoggedOut(sentBefore);
    expect(opened).toHaveLength(1);

    opened[0].onClose(); // Cancel: stay on the page
    confirmLoggedOut(sentBefore); // an answer that was already on its way
    expect(opened).toHaveLength(1);

    confirmLoggedOut(performance.now() + 1); // the user acts on the page again
    expect(opened).toHaveLength(2);
    opened[1].onClose();

    // A socket push (no send time) always asks, and so does a new session's first refusal.
    confirmLoggedOut();
    expect(opened).toHaveLength(3);
    opened[2].onClose();
    token = 'token-b';
    confirmLoggedOut(sentBefore);
    expect(opened).toHaveLength(4);
  });
});
