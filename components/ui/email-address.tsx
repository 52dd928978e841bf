/**
 * An e-mail address that may wrap only where it reads naturally: before the `@` and after
 * dots (never in the middle of a name, unless one part is wider than its column).
 */
export function EmailAddress({ address }: { address: string }) {
  const at = address.lastIndexOf("@");
  if (at <= 0) return <>{address}</>;
  const domainParts = address.slice(at + 1).split(".");
  return (
    <span>
      {address.slice(0, at)}
      <wbr />@
      {domainParts.map((part, index) => (
        <span key={index}>
          {index ? (
            <>
              <wbr />.
            </>
          ) : null}
          {part}
        </span>
      ))}
    </span>
  );
}
