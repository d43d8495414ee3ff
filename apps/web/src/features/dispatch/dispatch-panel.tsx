import { lazy, Suspense, useEffect, useRef } from 'react';
import { Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { DispatchDetail, FamilyName } from '@sc/contracts';

// The progress itself (rows, counts, pages, retry) loads beside the page; until then the panel shows its empty state.
const DispatchProgressView = lazy(() => import('./dispatch-progress'));

export interface DispatchPanelProps {
  family: FamilyName;
  dispatchId: string | null;
  describe: (t: TFunction, detail: DispatchDetail) => string;
}

/** The panel before any dispatch is followed (or while one loads). */
export function DispatchPanelEmpty() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" data-testid="dispatch-panel">
      <Title order={5} mb="xs">
        {t('dispatch:title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('dispatch:empty')}
      </Text>
    </Paper>
  );
}

/**
 * One dispatch of any family, live: status, counts by state, and each device's row (spec section 4 statuses), a page
 * at a time; a count filters the rows to its state. `describe` names the action in the family's own words.
 */
export function DispatchPanel(props: DispatchPanelProps) {
  const box = useRef<HTMLDivElement>(null);
  const shown = useRef(props.dispatchId);
  // A dispatch started from this page (not the one the address opened with) brings the panel into view when it is
  // off screen, as on a phone where it sits below the list.
  useEffect(() => {
    if (props.dispatchId === shown.current) return;
    shown.current = props.dispatchId;
    const place = box.current?.getBoundingClientRect();
    if (props.dispatchId && place && (place.top >= window.innerHeight || place.bottom <= 0)) box.current!.scrollIntoView({ block: 'start' });
  }, [props.dispatchId]);
  // A new dispatch starts on the first page of all its rows.
  return (
    <div ref={box}>
      <Suspense fallback={<DispatchPanelEmpty />}>
        <DispatchProgressView key={props.dispatchId ?? ''} {...props} />
      </Suspense>
    </div>
  );
}
