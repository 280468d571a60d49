// The import dialog's steps: a file, once chosen, is checked at once (a dry
// run) unless it is larger than the server takes; the check's report offers
// to import the rows it would register; the import's report says how many
// were, and the list is shown again. A refusal of the whole file is the
// dialog's alert. An answer about a file no longer chosen is dropped.
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessage, httpStatus, isCancelled } from '../../../lib/api.ts';
import { DEVICE_IMPORT_MAX_BYTES, DEVICE_IMPORT_MAX_MIB } from '../../../lib/constants.ts';
import { refusalMessage } from '../../../lib/refusals.ts';
import type { DeviceCsvKind } from '../../../lib/types.ts';
import { useImportDevicesMutation, type ImportReport } from '../api/device-import-api.ts';

export function useDeviceImport(kind: DeviceCsvKind, onImported: () => void) {
  const { t } = useTranslation('deviceImport');
  const [send, { isLoading }] = useImportDevicesMutation();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = useRef<File | null>(null);
  const tooLarge = t('tooLarge', { max: DEVICE_IMPORT_MAX_MIB });

  const refusal = (error: unknown): string => {
    if (httpStatus(error) === 413) return tooLarge;
    const reason = errorMessage(error);
    return refusalMessage(error, {
      byCode: reason ? { invalid_csv: t('invalidFile', { reason }) } : {},
      forbidden: t('notAllowed'),
      failed: t('failed'),
    });
  };

  const submit = async (target: File, apply: boolean) => {
    setProblem(null);
    try {
      const answer = await send({ kind, csv: await target.arrayBuffer(), apply }).unwrap();
      if (chosen.current !== target) return;
      setReport(answer);
      if (answer.applied && answer.registered > 0) onImported();
    } catch (error) {
      if (chosen.current === target && !isCancelled(error)) setProblem(refusal(error));
    }
  };

  const choose = (next: File) => {
    chosen.current = next;
    setFile(next);
    setReport(null);
    if (next.size > DEVICE_IMPORT_MAX_BYTES) setProblem(tooLarge);
    else void submit(next, false);
  };

  const apply = () => {
    if (file) void submit(file, true);
  };

  return { file, report, problem, busy: isLoading, choose, apply };
}
