// The cluster CA bundle kube-controller-manager holds (--root-ca-file): the
// root-ca-cert-publisher copies it into every namespace and the tokens
// controller into service-account token Secrets (a stand-in certificate).
export const ROOT_CA_CRT = '-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgIIKubeglassCAwDQYJKoZIhvcNAQELBQAwFTETMBEGA1UE\nAxMKa3ViZXJuZXRlczAeFw0yNTAxMDEwMDAwMDBaFw0zNTAxMDEwMDAwMDBaMBUx\nEzARBgNVBAMTCmt1YmVybmV0ZXMwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEK\n-----END CERTIFICATE-----\n';
