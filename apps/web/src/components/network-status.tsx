import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OnlineState } from '@sc/contracts';
import { OptionFilter } from './filter-fields';

// A device list's network column and filter, in the words of the family's namespace: `{ns}:network.0` and `.1`,
// `{ns}:fields.networkStatus` and `{ns}:list.allNetwork` (online and offline).

/** Online or offline, as a dot badge; `testId` its data-testid (`data-network` holds the state). */
export function NetworkBadge({ ns, networkStatus, testId }: { ns: string; networkStatus: OnlineState; testId: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={networkStatus === OnlineState.Online ? 'teal' : 'gray'} variant="dot" data-testid={testId} data-network={networkStatus}>
      {t(`${ns}:network.${networkStatus}`)}
    </Badge>
  );
}

/** The list's online or offline filter (cleared: both). */
export function NetworkFilter({
  ns,
  value,
  onChange,
  testId,
}: {
  ns: string;
  value: OnlineState | undefined;
  onChange: (value: OnlineState | undefined) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <OptionFilter
      label={t(`${ns}:fields.networkStatus`)}
      placeholder={t(`${ns}:list.allNetwork`)}
      options={[OnlineState.Online, OnlineState.Offline].map((state) => ({ value: state, label: t(`${ns}:network.${state}`) }))}
      value={value}
      onChange={onChange}
      width={160}
      testId={testId}
    />
  );
}
