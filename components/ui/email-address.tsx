/**
 * An e-mail address that may wrap only where it reads naturally: before the `@` and before
 * dots (never in the middle of a name, unless one part is wider than its column).
 */
export function EmailAddress({ address }: { address: string }) {
  const at = address.lastIndexOf("@");
  if (at <= 0) return <>{address}</>;
  return (
    <span>
      <DotParts text={address.slice(0, at)} />
      <wbr />@
      <DotParts text={address.slice(at + 1)} />
    </span>
  );
}

/** `text` with a break allowed before each dot. */
function DotParts({ text }: { text: string }) {
  return (
    <>
      {text.split(".").map((part, index) => (
        <span key={index}>
          {index ? (
            <>
              <wbr />.
            </>
          ) : null}
          {part}
        </span>
      ))}
    </>
  );
}
