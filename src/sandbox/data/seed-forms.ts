// Seeded form templates: the same three per tenant, with questions, options and visibility rules.
import type { FormTemplateRecord, Question, VisibilityRule } from './clinic-types.js';
import { blockIds } from './fixtures.js';
import { apiTimestamp, minutesAfterEpoch } from './time.js';

interface QuestionPlan {
  label: string;
  helper_text: string;
  question_type: Question['question_type'];
  required: boolean;
  options?: string[];
  /** Shown only when the question at this index (of the same template) has this answer. */
  showWhen?: { question: number; operator: VisibilityRule['operator']; value: string };
}

interface TemplatePlan {
  name: string;
  description: string;
  is_active: boolean;
  questions: QuestionPlan[];
}

const TEMPLATES: readonly TemplatePlan[] = [
  {
    name: 'Medical history',
    description: 'Filled in by every new patient before the first visit.',
    is_active: true,
    questions: [
      { label: 'Do you have any allergies?', helper_text: '', question_type: 'yes_no', required: true },
      {
        label: 'Which allergies?',
        helper_text: 'Medicines, latex, foods…',
        question_type: 'text',
        required: true,
        showWhen: { question: 0, operator: 'equals', value: 'yes' },
      },
      { label: 'Date of your last check-up', helper_text: '', question_type: 'date', required: false },
    ],
  },
  {
    name: 'Treatment consent',
    description: 'Signed before any treatment under local anaesthetic.',
    is_active: true,
    questions: [
      {
        label: 'I have read and understood the treatment plan',
        helper_text: '',
        question_type: 'checkbox',
        required: true,
      },
      {
        label: 'Full name as signature',
        helper_text: 'Type your name',
        question_type: 'text',
        required: true,
      },
    ],
  },
  {
    name: 'Satisfaction survey',
    description: 'Sent by SMS after a visit (paused).',
    is_active: false,
    questions: [
      {
        label: 'How was your visit?',
        helper_text: '',
        question_type: 'single_choice',
        required: true,
        options: ['Great', 'OK', 'Poor'],
      },
      {
        label: 'What could we do better?',
        helper_text: '',
        question_type: 'textarea',
        required: false,
        showWhen: { question: 0, operator: 'equals', value: 'Poor' },
      },
    ],
  },
];

interface Sequences {
  question: number;
  option: number;
  rule: number;
}

export function seedFormTemplates(tenantIds: readonly number[]): FormTemplateRecord[] {
  const sequences: Sequences = { question: 1, option: 1, rule: 1 };
  return tenantIds.flatMap((tenantId) =>
    blockIds('formTemplates', tenantId).map((id, index) => {
      const plan = TEMPLATES[index] ?? TEMPLATES[0];
      if (plan === undefined) throw new Error('no form template plans');
      const at = apiTimestamp(minutesAfterEpoch(-90 * 24 * 60 + id * 60));
      return {
        id,
        tenant_id: tenantId,
        name: plan.name,
        system_name: plan.name.toLowerCase().replace(/\W+/g, '_'),
        description: plan.description,
        is_active: plan.is_active,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        questions: buildQuestions(plan.questions, sequences),
      };
    }),
  );
}

function buildQuestions(plans: readonly QuestionPlan[], sequences: Sequences): Question[] {
  const ids = plans.map(() => sequences.question++);
  return plans.map((plan, index) => {
    const labels = plan.options ?? (plan.question_type === 'yes_no' ? ['yes', 'no'] : []);
    const rule = plan.showWhen;
    return {
      id: ids[index] ?? 0,
      order: index + 1,
      label: plan.label,
      helper_text: plan.helper_text,
      question_type: plan.question_type,
      required: plan.required,
      options: labels.map((label, order) => ({ id: sequences.option++, label, order: order + 1 })),
      visibility_rules:
        rule === undefined
          ? []
          : [
              {
                id: sequences.rule++,
                depends_on_question_id: ids[rule.question] ?? 0,
                operator: rule.operator,
                value: rule.value,
                match_type: 'all',
              },
            ],
    };
  });
}
