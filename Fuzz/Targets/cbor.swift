// libFuzzer target: CBOR as a browser posts it in a passkey's attestation object (Sources/WebAuthn/CBOR.swift): any
// bytes, no trap, no allocation larger than the input asks for honestly (a count is checked against the bytes left).
import WebAuthn

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    if let value = try? CBOR(decoding: bytes) {
        _ = value[text: "authData"]?.byteString
        _ = value[label: -1]?.integer
        _ = value == value
    }
    if let (value, length) = try? CBOR.decodePrefix(bytes) {
        precondition(length <= count)
        _ = value.textString
    }
    return 0
}
