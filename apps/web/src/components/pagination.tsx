import { Suspense } from 'react';
import { Text, type PaginationProps } from '@mantine/core';
import { lazyComponent } from './deferred';

const PaginationControl = lazyComponent(() => import('./pagination-control'), 'PaginationControl');

/**
 * Mantine's Pagination, loaded beside the page rather than before it (its controls are the last thing a list needs):
 * until its code has arrived, the page number stands in its place.
 */
export function Pagination(props: PaginationProps) {
  return (
    <Suspense
      fallback={
        <Text size="sm" c="dimmed">
          {`${props.value ?? props.defaultValue ?? 1} / ${props.total}`}
        </Text>
      }
    >
      <PaginationControl {...props} />
    </Suspense>
  );
}
