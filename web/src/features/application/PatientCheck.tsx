import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { finishFlow } from '@/flow/finish';
import { useT } from '@/lib/i18n';
import { useWording } from '@/lib/wording';
import { flow, useFlow, type PatientCheck as Answer } from '@/stores/flow';

/*
 * The patient check (docs/behaviour.md, "The patient check"): on the office
 * tablet, before the first form, "Are you the patient?". Asked once per
 * session (the answer is kept in the flow store), never at home.
 */

type Step = 'ask' | 'purchaser' | 'responsible' | 'handedBack';

/** answer keeps who applies; someone who pays for the patient has the patient's name, and the office's typed name is the patient's, not theirs. */
function answer(check: Answer, patientName: { firstName: string; lastName: string } | null = null): void {
  const { prefill } = flow.get();
  const ownName = check === 'patient' ? prefill : { ...prefill, firstName: undefined, lastName: undefined };
  flow.set({ patientCheck: check, patientName, prefill: ownName });
}

/** PatientCheck shows the question on the office tablet until it is answered. */
export function PatientCheck() {
  const ask = useFlow((s) => s.experienceType === 'in_store' && s.session !== null && s.patientCheck === null);
  return ask ? <PatientCheckModal /> : null;
}

function PatientCheckModal() {
  const t = useT();
  const { staff } = useWording();
  const purchaserEnabled = useFlow((s) => s.purchaserEnabled);
  const [step, setStep] = useState<Step>('ask');
  // Each step's first control takes the focus (after the page's heading took it on arrival).
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => body.current?.querySelector<HTMLElement>('input, button')?.focus(), [step]);
  const titles: Record<Step, string> = {
    ask: t('modals.patientCheck.title'),
    purchaser: t('modals.patientCheck.purchaserTitle'),
    responsible: t('modals.patientCheck.responsibleTitle'),
    handedBack: t('modals.patientCheck.handedBackTitle'),
  };
  // Escape goes back to the question; the question itself must be answered.
  return (
    <Modal title={titles[step]} onClose={() => setStep('ask')}>
      <div ref={body}>
        {step === 'ask' ? (
          <div key="ask">
            <p>{t('modals.patientCheck.lead')}</p>
            <div className="actions">
              <Button onClick={() => answer('patient')}>{t('modals.patientCheck.yes')}</Button>
              <Button variant="secondary" onClick={() => setStep(purchaserEnabled ? 'purchaser' : 'responsible')}>
                {t('modals.patientCheck.no')}
              </Button>
            </div>
          </div>
        ) : step === 'purchaser' ? (
          <PatientNameStep staff={staff} onBack={() => setStep('ask')} />
        ) : step === 'responsible' ? (
          <div key="responsible">
            <p>{t('modals.patientCheck.responsibleLead', { staff })}</p>
            <div className="actions">
              <Button onClick={() => answer('responsible')}>{t('modals.patientCheck.responsibleYes')}</Button>
              <Button variant="secondary" onClick={() => setStep('handedBack')}>
                {t('modals.patientCheck.handBack')}
              </Button>
              <Button variant="secondary" onClick={() => setStep('ask')}>
                {t('modals.patientCheck.back')}
              </Button>
            </div>
          </div>
        ) : (
          <HandedBackStep staff={staff} onAskAgain={() => setStep('ask')} />
        )}
      </div>
    </Modal>
  );
}

/** PatientNameStep asks someone who pays for the patient's name, prefilled with the name the office typed. */
function PatientNameStep({ staff, onBack }: { staff: string; onBack: () => void }) {
  const t = useT();
  const prefill = useFlow((s) => s.prefill);
  const [first, setFirst] = useState(prefill.firstName ?? '');
  const [last, setLast] = useState(prefill.lastName ?? '');
  const [tried, setTried] = useState(false);
  const firstError = tried && !first.trim() ? t('modals.patientCheck.firstNameMissing') : undefined;
  const lastError = tried && !last.trim() ? t('modals.patientCheck.lastNameMissing') : undefined;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!first.trim() || !last.trim()) {
          document.getElementById(first.trim() ? 'patient-last-name' : 'patient-first-name')?.focus();
          return;
        }
        answer('purchaser', { firstName: first.trim(), lastName: last.trim() });
      }}
    >
      <p>{t('modals.patientCheck.purchaserLead', { staff })}</p>
      <TextField id="patient-first-name" label={t('modals.patientCheck.patientFirstName')} value={first} error={firstError} onChange={setFirst} />
      <TextField id="patient-last-name" label={t('modals.patientCheck.patientLastName')} value={last} error={lastError} onChange={setLast} />
      <div className="actions">
        <Button type="submit">{t('modals.patientCheck.continue')}</Button>
        <Button variant="secondary" onClick={onBack}>
          {t('modals.patientCheck.back')}
        </Button>
      </div>
    </form>
  );
}

/** HandedBackStep is for the office team: ask the next person again, or end the application. */
function HandedBackStep({ staff, onAskAgain }: { staff: string; onAskAgain: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const end = async () => {
    setBusy(true);
    const to = await finishFlow('cancel');
    void navigate(to, { replace: true });
  };
  return (
    <div key="handedBack">
      <p>{t('modals.patientCheck.handedBackLead', { staff })}</p>
      <div className="actions">
        <Button onClick={onAskAgain}>{t('modals.patientCheck.askAgain')}</Button>
        <Button variant="secondary" onClick={end} disabled={busy}>
          {t('modals.patientCheck.endApplication')}
        </Button>
      </div>
    </div>
  );
}

/** PatientCheckNotice says above the form who is applying, when it is not the patient. */
export function PatientCheckNotice() {
  const t = useT();
  const check = useFlow((s) => s.patientCheck);
  const patient = useFlow((s) => s.patientName);
  if (check === 'purchaser' && patient) {
    return <p className="notice">{t('modals.patientCheck.noticePurchaser', { patient: `${patient.firstName} ${patient.lastName}` })}</p>;
  }
  if (check === 'responsible') return <p className="notice">{t('modals.patientCheck.noticeResponsible')}</p>;
  return null;
}
