// libFuzzer target: a passkey's public key, a COSE_Key in CBOR (Sources/WebAuthn/COSEKey.swift), and the
// authenticator data that carries it (AuthenticatorData.swift): any bytes, no trap; a key read is used to check a
// signature made of the same bytes (which must not verify, and must not crash).
import WebAuthn

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCOSEKey(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    if let key = try? COSEKey(bytes: bytes) {
        _ = key.isValidSignature(bytes, for: bytes)
    }
    if let data = try? AuthenticatorData(bytes: bytes), let credential = data.credential {
        _ = credential.publicKey.isValidSignature(credential.id, for: bytes)
    }
    return 0
}
