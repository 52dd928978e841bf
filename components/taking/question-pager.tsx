import { Button } from "@/components/ui/button";

/** Previous and Next under a question; the last one leads to the review, which any other offers beside Next. */
export function QuestionPager({ index, total, onQuestion, onReview }: { index: number; total: number; onQuestion: (index: number) => void; onReview: () => void }) {
  return (
    <div className="flex flex-wrap justify-between gap-2">
      <Button type="button" variant="secondary" className="min-h-11" disabled={index === 0} onClick={() => onQuestion(index - 1)}>
        <span aria-hidden="true">←</span> Previous
      </Button>
      {index < total - 1 ? (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="ghost" className="min-h-11" onClick={onReview}>
            Review
          </Button>
          <Button type="button" className="min-h-11" onClick={() => onQuestion(index + 1)}>
            Next <span aria-hidden="true">→</span>
          </Button>
        </div>
      ) : (
        <Button type="button" className="min-h-11" onClick={onReview}>
          Review <span aria-hidden="true">→</span>
        </Button>
      )}
    </div>
  );
}
