// Response fields for sampling uncertainty (docs/uncertainty-and-discovery.md), shared by the extension routes
// (brand detail, prompt detail) and /aio-metrics, where they are opt-in
// (`include_uncertainty=true`) so that the spec's default answer stays as the spec says.
import { Type } from 'typebox'

/** A Wilson 95% interval or null: `scale` says what its bounds are measured in. */
function wilsonCi(scale: string, description: string) {
  return Type.Union(
    [
      Type.Object(
        {
          low: Type.Number({ description: `Lower bound, ${scale}` }),
          high: Type.Number({ description: `Upper bound, ${scale}` }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    { description },
  )
}

export const VisibilityCi = wilsonCi('same 0–100 scale as visibility_score', 'Wilson 95% interval of visibility_score; null when there are no responses (nothing was measured)')

/** The interval of a 0–1 rate of the AIO routes. */
export const RatioCi = wilsonCi('0 to 1', 'Wilson 95% interval of the rate beside it; null when its sample is empty')

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
