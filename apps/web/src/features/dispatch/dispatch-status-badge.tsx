import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DispatchStatus } from '@sc/contracts';

const STATUS_COLOR: Record<string, string> = {
  [DispatchStatus.ToBeSent]: 'blue',
  [DispatchStatus.AllSuccessful]: 'teal',
  [DispatchStatus.PartiallySuccessful]: 'orange',
  [DispatchStatus.AllFailures]: 'red',
};

/** A dispatch's status of spec section 4 (to be sent, partially successful, all successful, all failures). */
export function DispatchStatusBadge({ status, testId = 'dispatch-status' }: { status: DispatchStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status] ?? 'gray'} data-testid={testId} data-status={status}>
      {t(`dispatch:status.${status}`)}
    </Badge>
  );
}
