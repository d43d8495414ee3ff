import { useEffect, useState } from 'react';
import { Alert, Badge, Button, FileInput, Group, Modal, ScrollArea, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconEye, IconFileSpreadsheet, IconKey, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { IMPORT_ERRORS_SHOWN, LIMITS, type ImportKind } from '@sc/contracts';
import { ApiError } from '@/api/request';
import { fieldErrors } from '@/api/field-errors';
import { notifyError, notifySuccess } from '@/components/notify';
import { useIsMobile } from '@/layout/use-is-mobile';
import {
  downloadCredentials,
  downloadReport,
  downloadTemplate,
  importFile,
  importTakesGroup,
  useImportGroups,
  useUploadBase,
  type ImportOutcome,
} from './api';

/** The client's own check of a chosen file, with the spec's messages; the server checks again, by content. */
function fileProblem(file: File | null): string | null {
  if (!file) return 'messages:chooseFile';
  if (!/\.(xlsx|xls)$/.test(file.name)) return 'messages:onlyXlsx';
  if (file.size > LIMITS.importMaxBytes) return 'messages:fileTooLarge5mb';
  return null;
}

export interface ImportDialogProps {
  opened: boolean;
  kind: ImportKind;
  onClose: () => void;
  /** After a real (not previewed) import that wrote something. */
  onImported?: () => void;
}

/**
 * Import data: a file and a device group (for kinds whose records are in groups), a preview (dry run) of what would be added, changed or left alone, then the
 * import. A file with bad rows imports nothing; its problems are listed and can be downloaded as a workbook.
 */
export function ImportDialog({ opened, kind, onClose, onImported }: ImportDialogProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const base = useUploadBase();
  const groups = useImportGroups(kind);
  const takesGroup = importTakesGroup(kind);
  const [file, setFile] = useState<File | null>(null);
  const [groupId, setGroupId] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ file?: string; groupId?: string }>({});
  const [busy, setBusy] = useState<'preview' | 'import' | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);

  useEffect(() => {
    if (opened) {
      setFile(null);
      setErrors({});
      setOutcome(null);
    }
  }, [opened]);

  const run = async (dryRun: boolean) => {
    const problem = fileProblem(file);
    const next = { file: problem ? t(problem) : undefined, groupId: groupId || !takesGroup ? undefined : t('messages:selectGroup') };
    setErrors(next);
    if (next.file || next.groupId || !file || !base) return;
    setBusy(dryRun ? 'preview' : 'import');
    setOutcome(null);
    try {
      const answer = await importFile(base, kind, file, takesGroup && groupId ? Number(groupId) : null, dryRun);
      setOutcome(answer);
      if ('result' in answer && !dryRun) {
        const { added, changed, unchanged } = answer.result;
        notifySuccess(t('imports:imported', { added, changed, unchanged }));
        if (added + changed > 0) onImported?.();
      }
    } catch (error) {
      const byField = fieldErrors(error);
      setErrors({ file: byField.file, groupId: byField.groupId });
      if (error instanceof ApiError) notifyError(error.message);
    } finally {
      setBusy(null);
    }
  };

  const groupOptions = (groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }));
  return (
    <Modal opened={opened} onClose={onClose} title={t(`imports:title.${kind}`)} size="xl" fullScreen={mobile}>
      <Stack data-testid="import-dialog">
        <Group align="flex-start" grow>
          {takesGroup && (
            <Select
              label={t('imports:group')}
              placeholder={t('imports:groupPlaceholder')}
              required
              data={groupOptions}
              value={groupId}
              onChange={(v) => {
                setGroupId(v);
                setErrors((e) => ({ ...e, groupId: undefined }));
              }}
              error={errors.groupId}
              nothingFoundMessage={t('imports:noGroups')}
              searchable
              data-testid="import-group"
            />
          )}
          <FileInput
            label={t('imports:file')}
            placeholder={t('imports:filePlaceholder')}
            description={t('imports:fileHint')}
            required
            clearable
            accept=".xlsx,.xls"
            leftSection={<IconFileSpreadsheet size={16} />}
            value={file}
            onChange={(f) => {
              setFile(f);
              setOutcome(null);
              setErrors((e) => ({ ...e, file: f ? (fileProblem(f) ? t(fileProblem(f) as string) : undefined) : undefined }));
            }}
            error={errors.file}
            data-testid="import-file"
          />
        </Group>
        <Group justify="space-between">
          <Button
            variant="subtle"
            leftSection={<IconDownload size={16} />}
            onClick={() => void downloadTemplate(kind).catch(() => undefined)}
            data-testid="import-template"
          >
            {t('imports:template')}
          </Button>
          <Group gap="xs">
            <Tooltip label={t('imports:previewHint')}>
              <Button
                variant="default"
                leftSection={<IconEye size={16} />}
                loading={busy === 'preview'}
                disabled={busy !== null}
                onClick={() => void run(true)}
                data-testid="import-preview"
              >
                {t('imports:preview')}
              </Button>
            </Tooltip>
            <Button
              leftSection={<IconUpload size={16} />}
              loading={busy === 'import'}
              disabled={busy !== null}
              onClick={() => void run(false)}
              data-testid="import-submit"
            >
              {t('imports:import')}
            </Button>
          </Group>
        </Group>
        {outcome && 'result' in outcome && <ResultSummary outcome={outcome} />}
        {outcome && 'rejection' in outcome && <RejectionTable outcome={outcome} />}
      </Stack>
    </Modal>
  );
}

/** The added devices' MQTT logins: one download (the server forgets the offer once it is taken). */
function CredentialsDownload({ id }: { id: string }) {
  const { t } = useTranslation();
  const [taken, setTaken] = useState(false);
  return (
    <Group gap="xs">
      <Button
        variant="light"
        leftSection={<IconKey size={16} />}
        disabled={taken}
        onClick={() => {
          setTaken(true);
          void downloadCredentials(id).catch(() => undefined);
        }}
        data-testid="import-credentials"
      >
        {t('imports:downloadCredentials')}
      </Button>
      <Text size="sm" c="dimmed">
        {t('imports:credentialsHint')}
      </Text>
    </Group>
  );
}

function ResultSummary({ outcome: { result } }: { outcome: Extract<ImportOutcome, { result: unknown }> }) {
  const { t } = useTranslation();
  return (
    <Alert
      color={result.dryRun ? 'blue' : 'teal'}
      title={t(result.dryRun ? 'imports:previewSummary' : 'imports:doneSummary', { count: result.total })}
      data-testid="import-result"
    >
      <Stack gap="xs">
        <Group gap="xs">
          <Badge color="teal" data-testid="import-added">{`${t('imports:added')}: ${result.added}`}</Badge>
          <Badge color="orange" data-testid="import-changed">{`${t('imports:changed')}: ${result.changed}`}</Badge>
          <Badge color="gray" data-testid="import-unchanged">{`${t('imports:unchanged')}: ${result.unchanged}`}</Badge>
        </Group>
        {result.addedCodes.length > 0 && (
          <Text size="sm">{`${t('imports:added')} — ${t('imports:codes')}: ${result.addedCodes.join(', ')}${result.added > result.addedCodes.length ? ' …' : ''}`}</Text>
        )}
        {result.changedCodes.length > 0 && (
          <Text size="sm">{`${t('imports:changed')} — ${t('imports:codes')}: ${result.changedCodes.join(', ')}${result.changed > result.changedCodes.length ? ' …' : ''}`}</Text>
        )}
        {result.credentialsId && <CredentialsDownload id={result.credentialsId} />}
      </Stack>
    </Alert>
  );
}

function RejectionTable({ outcome: { rejection, message } }: { outcome: Extract<ImportOutcome, { rejection: unknown }> }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title={message} data-testid="import-errors">
      <Stack gap="xs">
        {rejection.errorCount > rejection.errors.length && (
          <Text size="sm">
            {t('imports:errorsMore', { shown: Math.min(IMPORT_ERRORS_SHOWN, rejection.errors.length), count: rejection.errorCount })}
          </Text>
        )}
        <ScrollArea.Autosize mah={280}>
          <Table striped withTableBorder fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('imports:row')}</Table.Th>
                <Table.Th>{t('imports:column')}</Table.Th>
                <Table.Th>{t('imports:value')}</Table.Th>
                <Table.Th>{t('imports:reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rejection.errors.map((e, i) => (
                <Table.Tr key={`${e.row}-${e.column}-${i}`} data-testid="import-error-row">
                  <Table.Td>{e.row}</Table.Td>
                  <Table.Td>{e.column}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{e.value}</Table.Td>
                  <Table.Td>{e.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        <Group>
          <Button
            variant="light"
            color="red"
            leftSection={<IconDownload size={16} />}
            onClick={() => void downloadReport(rejection.reportId).catch(() => undefined)}
            data-testid="import-report"
          >
            {t('imports:downloadReport')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
