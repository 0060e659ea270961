import { describe, expect, it } from 'vitest';
import { docTitle } from './docLinks';
import { setLanguage } from './i18n';
import { bankAccountErrors, cardErrors } from './payment';
import { stepList, stepStates } from './steps';

/* The words kept in lib for the patient's screens, in Spanish: the stepper's steps, the documents' names and the payment checks. */

describe('lib words in Spanish', () => {
  it('names the steps, the documents and the payment problems in Spanish', async () => {
    await setLanguage('es');
    expect(stepStates(stepList('prequalify'), 'paymentOptions').map((s) => s.label)).toEqual([
      'Datos del paciente',
      'Opciones de pago',
      'Aceptar la oferta',
      'Completado',
    ]);
    expect(docTitle('privacyNotice')).toBe('Aviso de privacidad');
    expect(bankAccountErrors({ routingNumber: '123456789', accountNumber: '12', bankName: '' })).toEqual({
      routingNumber: 'No reconocemos este número de ruta. Compare cada dígito con sus cheques.',
      accountNumber: 'Su número de cuenta tiene de 4 a 17 dígitos.',
      bankName: 'Campo obligatorio',
    });
    expect(cardErrors({ cardholderName: 'Ana', cardNumber: '4111111111111111', expiry: '01/20', cvv: '12', zip: '' }, new Date(2026, 0, 1))).toEqual({
      expiry: 'Escriba una fecha de vencimiento que no haya pasado (MM/AA).',
      cvv: 'El código de seguridad tiene 3 dígitos, o 4 en el frente de una tarjeta American Express.',
      zip: 'Campo obligatorio',
    });
  });

  it('stays English in English', () => {
    expect(stepStates(stepList('nooffer'), 'patientInfo').map((s) => s.label)).toEqual(['Patient info', 'Begin standard application']);
  });
});
