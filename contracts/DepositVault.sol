// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title DepositVault
/// @notice Holds members' token deposits. A member deposits with a reference that ties the
/// deposit to their Questline account; the platform's operator pays withdrawals, each under a
/// withdrawal id that the vault pays at most once, so a retried withdrawal never pays twice.
contract DepositVault is AccessControl, Pausable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice May call `withdraw`.
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");
    /// @notice May pause and unpause deposits and withdrawals.
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    /// @notice The token held.
    IERC20 public immutable token;

    /// @notice Withdrawal ids already paid.
    mapping(bytes32 withdrawalId => bool paid) public withdrawalPaid;

    /// @notice A zero address among the arguments.
    error ZeroAddress();
    /// @notice A deposit or withdrawal of zero tokens.
    error ZeroAmount();
    /// @notice The permit was refused and no allowance covers the deposit.
    error PermitFailed();
    /// @notice This withdrawal id was paid before.
    error WithdrawalAlreadyPaid(bytes32 withdrawalId);

    /// @notice `from` deposited `amount` for the member `ref`.
    event Deposited(address indexed from, bytes32 indexed ref, uint256 amount);
    /// @notice `operator` paid `amount` to `to` for `withdrawalId`.
    event Withdrawn(bytes32 indexed withdrawalId, address indexed to, uint256 amount, address indexed operator);

    /// @param token_ The token held.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` and `PAUSER_ROLE`.
    /// @param operator Receives `OPERATOR_ROLE`.
    constructor(IERC20 token_, address admin, address operator) {
        if (address(token_) == address(0) || admin == address(0) || operator == address(0)) revert ZeroAddress();
        token = token_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(PAUSER_ROLE, admin);
        _grantRole(OPERATOR_ROLE, operator);
    }

    /// @notice Deposits `amount` from the caller (who approved the vault) for the member `ref`.
    function deposit(uint256 amount, bytes32 ref) external {
        _deposit(amount, ref);
    }

    /// @notice Deposits with an EIP-2612 permit, so one signature is enough. If the permit was
    /// already used (someone submitted it first), the deposit goes on with the allowance it set.
    function depositWithPermit(uint256 amount, bytes32 ref, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        (bool permitted,) = address(token).call(
            abi.encodeCall(IERC20Permit.permit, (msg.sender, address(this), amount, deadline, v, r, s))
        );
        if (!permitted && token.allowance(msg.sender, address(this)) < amount) revert PermitFailed();
        _deposit(amount, ref);
    }

    /// @notice Pays `amount` to `to` for `withdrawalId`, once: a paid id is refused.
    function withdraw(bytes32 withdrawalId, address to, uint256 amount)
        external
        onlyRole(OPERATOR_ROLE)
        whenNotPaused
        nonReentrant
    {
        if (withdrawalPaid[withdrawalId]) revert WithdrawalAlreadyPaid(withdrawalId);
        if (to == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        withdrawalPaid[withdrawalId] = true;
        emit Withdrawn(withdrawalId, to, amount, msg.sender);
        token.safeTransfer(to, amount);
    }

    /// @notice Stops deposits and withdrawals.
    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    /// @notice Resumes deposits and withdrawals.
    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }

    function _deposit(uint256 amount, bytes32 ref) private whenNotPaused nonReentrant {
        if (amount == 0) revert ZeroAmount();
        emit Deposited(msg.sender, ref, amount);
        token.safeTransferFrom(msg.sender, address(this), amount);
    }
}
