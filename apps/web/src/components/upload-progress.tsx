import { Progress, Stack, Text } from '@mantine/core';

/**
 * How far an upload is (`progress`, 0 to 1; nothing while null): the bytes sent, then, once all have gone, the
 * server's check of the file (`checking`) while the bar keeps moving.
 */
export function UploadProgress({
  progress,
  uploading,
  checking,
  testId,
}: {
  progress: number | null;
  /** The label while bytes go, given the percent sent. */
  uploading: (percent: number) => string;
  checking: string;
  testId: string;
}) {
  if (progress === null) return null;
  const percent = Math.round(progress * 100);
  return (
    <Stack gap={4} data-testid={testId}>
      <Progress value={percent} animated={progress >= 1} />
      <Text size="xs" c="dimmed">
        {progress < 1 ? uploading(percent) : checking}
      </Text>
    </Stack>
  );
}
