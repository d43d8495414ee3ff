import { Drawer } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DispatchPanel, type DispatchPanelProps } from './dispatch-panel';

/**
 * The dispatch panel beside a list that has no room for it: a drawer that opens on the dispatch a command just started
 * (`dispatchId`, kept in the page's address so a reload shows it again) and follows it live until the operator closes it.
 */
export default function DispatchDrawer({ onClose, ...props }: DispatchPanelProps & { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={props.dispatchId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('common:command.progress')}
      data-testid="dispatch-drawer"
    >
      <DispatchPanel {...props} />
    </Drawer>
  );
}
