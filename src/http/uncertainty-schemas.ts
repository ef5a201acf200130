// Response fields for sampling uncertainty (DESIGN §17), shared by the extension routes
// (brand detail, prompt detail). Spec routes never carry them.
import { Type } from 'typebox'

export const VisibilityCi = Type.Union(
  [
    Type.Object(
      {
        low: Type.Number({ description: 'Lower bound, same 0–100 scale as visibility_score' }),
        high: Type.Number({ description: 'Upper bound, same 0–100 scale as visibility_score' }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'Wilson 95% interval of visibility_score; null when there are no responses (nothing was measured)' },
)

export const SampleSize = Type.Integer({ description: 'Sample size behind the rate: the responses it is measured over' })

export const PeriodChangeTest = Type.Object(
  {
    delta: Type.Number({ description: 'visibility_score minus the previous period’s, in points (as shown, so it checks by subtraction)' }),
    p_value: Type.Union([Type.Number(), Type.Null()], {
      description: 'Two-sided p-value of the pooled two-proportion z-test (4 significant digits); null when either period has no responses',
    }),
    significant: Type.Union([Type.Boolean(), Type.Null()], {
      description: 'p_value < 0.05; null when either period has fewer than 30 responses (too few to test)',
    }),
  },
  { additionalProperties: false, description: 'Is the visibility change between the two periods more than sampling noise?' },
)

/** A rate on the 0–1 scale of the AIO routes with its Wilson 95% interval (opt-in there: `include_uncertainty=true`). */
export const RatioCi = Type.Union(
  [
    Type.Object(
      {
        low: Type.Number({ description: 'Lower bound, 0 to 1' }),
        high: Type.Number({ description: 'Upper bound, 0 to 1' }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'Wilson 95% interval of the rate beside it; null when its sample is empty' },
)
