// libqrencode (Debian libqrencode-dev): the QR code an authenticator app scans to add the second step.
#include <qrencode.h>
